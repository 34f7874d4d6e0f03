import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Form, Input, Result, Selector, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { DOCUMENT_TYPES, isIdCard, type DocumentType, type IdentityState } from '@custos/contract';
import { fieldLabel, translate } from '../../../lib/i18n/server-messages';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { getIdentity } from '../api/get-identity';
import { submitIdentity } from '../api/submit-identity';
import { uploadImage } from '../api/upload-image';

type Slot = 'front' | 'back' | 'selfie';
const SLOTS: Slot[] = ['front', 'back', 'selfie'];

/** One photo: picked from the device, uploaded at once; the preview is the local file. */
function PhotoSlot({ slot, onUploaded }: { slot: Slot; onUploaded: (slot: Slot, id: string) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  return (
    <div className="photo-slot">
      <span className="photo-slot-label">{t(`identity.${slot}`)}</span>
      {preview && <img src={preview} alt={t(`identity.${slot}`)} />}
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        hidden
        data-testid={`photo-${slot}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setBusy(true);
          uploadImage(file)
            .then(
              ({ id }) => {
                setPreview(URL.createObjectURL(file));
                onUploaded(slot, id);
              },
              () => undefined,
            )
            .finally(() => setBusy(false));
        }}
      />
      <Button size="small" loading={busy} onClick={() => input.current?.click()}>
        {preview ? t('identity.change') : t('identity.choose')}
      </Button>
    </div>
  );
}

/** setting3: real-name verification: state, and the form while unverified or after a failure. */
export default function IdentityScreen() {
  const { t } = useTranslation();
  const [state, setState] = useState<IdentityState | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType>('id_card');
  const [images, setImages] = useState<Partial<Record<Slot, string>>>({});
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    getIdentity().then(setState, () => undefined);
  }, []);
  useEffect(load, [load]);

  if (!state) return null;
  const locale = currentLocale();
  const statusColor = { unverified: 'default', pending: 'warning', approved: 'success', failed: 'danger' } as const;
  const header = (
    <div className="identity-status">
      <Tag color={statusColor[state.status]} data-testid="identity-status">
        {t(`identity.${state.status}`)}
      </Tag>
      {state.status === 'failed' && state.failReason && (
        <p className="identity-reason">{t('identity.failReason', { reason: state.failReason })}</p>
      )}
    </div>
  );

  if (state.status === 'pending' || state.status === 'approved') {
    return (
      <div className="identity-screen">
        {header}
        <Result
          status={state.status === 'approved' ? 'success' : 'waiting'}
          title={state.status === 'approved' ? t('identity.approvedHint') : t('identity.pendingHint')}
          description={`${state.realName ?? ''} · ${state.idNumberMasked ?? ''}`}
        />
      </div>
    );
  }

  return (
    <div className="identity-screen">
      {header}
      {state.status === 'failed' && <p className="identity-reason">{t('identity.resubmitHint')}</p>}
      <Form
        layout="vertical"
        onFinish={(values: { idNumber: string; realName: string }) => {
          const { front, back, selfie } = images;
          if (!front || !back || !selfie) {
            showToast(t('identity.imagesRequired'));
            return;
          }
          setBusy(true);
          submitIdentity({
            documentType,
            idNumber: values.idNumber.trim(),
            realName: values.realName.trim(),
            frontImageId: front,
            backImageId: back,
            selfieImageId: selfie,
          })
            .then(
              () => {
                showToast(t('identity.submitted'));
                load();
              },
              () => undefined,
            )
            .finally(() => setBusy(false));
        }}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy}>
            {t('identity.submit')}
          </Button>
        }
      >
        <Form.Item label={t('identity.documentType')}>
          <Selector
            columns={3}
            value={[documentType]}
            onChange={(values) => {
              if (values[0]) setDocumentType(values[0]);
            }}
            options={DOCUMENT_TYPES.map((type) => ({ label: t(`identity.${type}`), value: type }))}
          />
        </Form.Item>
        <Form.Item
          name="realName"
          label={t('identity.realName')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: translate(locale, 'reason.required', { field: fieldLabel(locale, 'realName') }),
            },
          ]}
        >
          <Input placeholder={t('identity.realNamePlaceholder')} maxLength={64} />
        </Form.Item>
        <Form.Item
          name="idNumber"
          label={t('identity.idNumber')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: translate(locale, 'reason.required', { field: fieldLabel(locale, 'idNumber') }),
            },
            {
              validator: async (_rule, value: string | undefined) => {
                if (documentType === 'id_card' && value && !isIdCard(value.trim()))
                  throw new Error(translate(locale, 'reason.id_card'));
              },
            },
          ]}
        >
          <Input placeholder={t('identity.idNumberPlaceholder')} maxLength={32} />
        </Form.Item>
        <div className="photo-slots">
          {SLOTS.map((slot) => (
            <PhotoSlot key={slot} slot={slot} onUploaded={(which, id) => setImages((current) => ({ ...current, [which]: id }))} />
          ))}
        </div>
      </Form>
    </div>
  );
}
