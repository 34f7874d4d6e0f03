import { useState } from 'react';
import { Button, Form, Popup, TextArea } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import {
  OTC_APPEAL_DESCRIPTION_MAX_LENGTH,
  OTC_APPEAL_IMAGES_MAX,
  OTC_APPEAL_REASONS,
  type OtcAppealReason,
  type OtcRole,
} from '@custos/contract';
import { fieldLabel, translate } from '../../../lib/i18n/server-messages';
import { ImagePicker, type PickedImage } from '../../../components/forms/ImagePicker';
import { SingleSelector } from '../../../components/forms/SingleSelector';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { appealOrder } from '../api/appeal';
import { otcKeys } from '../api/keys';
import { uploadOtcImage } from '../api/upload-image';

interface AppealValues {
  reason?: OtcAppealReason[];
  description?: string;
}

/** The reasons that fit each side first (a buyer rarely says "payment not received"). */
const REASONS_BY_ROLE: Record<OtcRole, readonly OtcAppealReason[]> = {
  buyer: ['paid_not_released', 'fraud_suspected', 'other'],
  seller: ['payment_not_received', 'amount_mismatch', 'payer_name_mismatch', 'fraud_suspected', 'other'],
};

/**
 * An appeal after the release window (spec "buyer appeal", the seller too): a reason, what happened,
 * and up to five evidence images (uploads with purpose `otc`). The order freezes until an operator rules.
 */
export function AppealSheet({ orderId, role, onClose }: { orderId: string; role: OtcRole; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AppealValues>();
  const [images, setImages] = useState<PickedImage[]>([]);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const reasons = REASONS_BY_ROLE[role].filter((reason) => OTC_APPEAL_REASONS.includes(reason));

  const submit = async (values: AppealValues) => {
    const reason = values.reason?.[0];
    if (!reason || busy) return;
    setBusy(true);
    try {
      await appealOrder({
        orderId,
        reason,
        description: (values.description ?? '').trim(),
        imageIds: images.map((image) => image.id),
      });
      showToast(t('otc.appeal.submitted'));
      onClose();
    } catch {
      // The server's refusal (too early, already under appeal) has been shown.
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: otcKeys.all });
    }
  };

  return (
    <Popup
      visible
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="otc-sheet"
      bodyStyle={{ maxHeight: '88vh', overflowY: 'auto' }}
    >
      <div data-testid="otc-appeal-sheet">
        <h3 className="otc-sheet-title">{t('otc.appeal.title')}</h3>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ reason: [reasons[0]] }}
          onFinish={(values: AppealValues) => void submit(values)}
          footer={
            <Button
              block
              type="submit"
              color="warning"
              size="large"
              loading={busy}
              disabled={uploading}
              data-testid="otc-appeal-submit"
            >
              {t('otc.appeal.submit')}
            </Button>
          }
        >
          <Form.Item
            name="reason"
            label={t('otc.appeal.reason')}
            rules={[{ required: true, type: 'array', min: 1, message: t('otc.appeal.chooseReason') }]}
          >
            <SingleSelector<OtcAppealReason>
              columns={1}
              data-testid="otc-appeal-reason"
              options={reasons.map((reason) => ({ value: reason, label: t(`otc.appeal.reasons.${reason}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('otc.appeal.description')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: translate(currentLocale(), 'reason.required', { field: fieldLabel(currentLocale(), 'description') }),
              },
            ]}
          >
            <TextArea
              placeholder={t('otc.appeal.descriptionPlaceholder')}
              maxLength={OTC_APPEAL_DESCRIPTION_MAX_LENGTH}
              showCount
              autoSize={{ minRows: 3, maxRows: 6 }}
              data-testid="otc-appeal-description"
            />
          </Form.Item>
          <Form.Item label={t('otc.appeal.evidence', { count: OTC_APPEAL_IMAGES_MAX })}>
            <ImagePicker
              images={images}
              setImages={setImages}
              upload={(file) => uploadOtcImage(file, 'otc')}
              max={OTC_APPEAL_IMAGES_MAX}
              texts={{ add: t('otc.appeal.addImage'), remove: t('otc.appeal.removeImage') }}
              testIdPrefix="otc-appeal"
              onUploadingChange={setUploading}
            />
          </Form.Item>
        </Form>
      </div>
    </Popup>
  );
}
