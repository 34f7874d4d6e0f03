import { useCallback, useEffect, useState } from 'react';
import { Button, Form, Image, Input, List, Tag, TextArea } from 'antd-mobile';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { FEEDBACK_IMAGES_MAX, FEEDBACK_TITLE_MAX_LENGTH, TEXT_AREA_MAX_LENGTH, type FeedbackItem } from '@custos/contract';
import { fieldLabel, translate } from '../../../lib/i18n/server-messages';
import { ImagePicker, type PickedImage } from '../../../components/forms/ImagePicker';
import { PagedList } from '../../../components/lists/PagedList';
import { fetchPrivateImage } from '../../../lib/api/image';
import { formatDateTime } from '../../../lib/format/time';
import { currentLocale } from '../../../lib/i18n/i18n';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { showToast } from '../../../lib/toast';
import { feedbackKeys } from '../api/keys';
import { listFeedback } from '../api/list-feedback';
import { pushFeedback } from '../api/push-feedback';
import { uploadFeedbackImage } from '../api/upload-feedback-image';

/** One of the member's own images, fetched with the credential (never a public URL). */
function PrivateThumb({ uploadId }: { uploadId: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchPrivateImage(`/api/upload/image/${uploadId}`).then(
      (url) => live && setSrc(url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [uploadId]);
  return src ? <Image src={src} width={56} height={56} fit="cover" className="feedback-thumb" /> : null;
}

function FeedbackRow({ item }: { item: FeedbackItem }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="feedback-item"
      data-feedback-id={item.id}
      description={
        <>
          <div className="feedback-content">{item.content}</div>
          {item.orderNo && <div>{t('feedback.orderNoValue', { orderNo: item.orderNo })}</div>}
          {item.imageIds.length > 0 && (
            <div className="feedback-thumbs">
              {item.imageIds.map((id) => (
                <PrivateThumb key={id} uploadId={id} />
              ))}
            </div>
          )}
          {item.reply && (
            <div className="feedback-reply" data-testid="feedback-reply">
              {t('feedback.replyValue', { reply: item.reply })}
            </div>
          )}
          <div>{formatDateTime(item.createdAt)}</div>
        </>
      }
      extra={
        <Tag color={item.status === 'replied' ? 'success' : 'warning'} data-testid="feedback-status" data-status={item.status}>
          {t(`feedback.status.${item.status}`)}
        </Tag>
      }
    >
      <span data-testid="feedback-title">{item.title}</span>
    </List.Item>
  );
}

function NewFeedbackForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [form] = Form.useForm();
  const [images, setImages] = useState<PickedImage[]>([]);
  const [uploading, setUploading] = useState(false);
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: pushFeedback,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedbackKeys.all }),
  });
  const required = (field: string) => ({
    required: true,
    whitespace: true,
    message: translate(locale, 'reason.required', { field: fieldLabel(locale, field) }),
  });
  return (
    <Form
      form={form}
      layout="vertical"
      className="feedback-form"
      onFinish={(values: { title: string; content: string; orderNo?: string }) => {
        send.mutate(
          {
            title: values.title.trim(),
            content: values.content.trim(),
            imageIds: images.map((image) => image.id),
            ...(values.orderNo?.trim() ? { orderNo: values.orderNo.trim() } : {}),
          },
          {
            // The client has already shown a failure.
            onSuccess: () => {
              showToast(t('feedback.sent'));
              form.resetFields();
              setImages([]);
              onSent();
            },
          },
        );
      }}
      footer={
        <Button
          block
          type="submit"
          color="primary"
          size="large"
          loading={send.isPending}
          disabled={uploading}
          data-testid="feedback-submit"
        >
          {t('feedback.submit')}
        </Button>
      }
    >
      <Form.Item name="title" label={t('feedback.title')} rules={[required('title')]}>
        <Input
          placeholder={t('feedback.titlePlaceholder')}
          maxLength={FEEDBACK_TITLE_MAX_LENGTH}
          data-testid="feedback-title-input"
        />
      </Form.Item>
      <Form.Item name="content" label={t('feedback.content')} rules={[required('content')]}>
        <TextArea
          placeholder={t('feedback.contentPlaceholder')}
          maxLength={TEXT_AREA_MAX_LENGTH}
          showCount
          rows={4}
          data-testid="feedback-content-input"
        />
      </Form.Item>
      <Form.Item name="orderNo" label={t('feedback.orderNo')}>
        <Input placeholder={t('feedback.orderNoPlaceholder')} maxLength={64} data-testid="feedback-order-input" />
      </Form.Item>
      <Form.Item label={t('feedback.images', { max: FEEDBACK_IMAGES_MAX })}>
        <ImagePicker
          images={images}
          setImages={setImages}
          upload={uploadFeedbackImage}
          max={FEEDBACK_IMAGES_MAX}
          texts={{ add: t('feedback.addImage'), remove: t('feedback.removeImage') }}
          testIdPrefix="feedback"
          onUploadingChange={setUploading}
        />
      </Form.Item>
    </Form>
  );
}

/** blance_record11: my feedback with its status and the platform's reply, and a form for new feedback. */
export default function FeedbackScreen() {
  const { t } = useTranslation();
  const [writing, setWriting] = useState(false);
  const fetchPage = useCallback((page: number, pageSize: number) => listFeedback({ page, pageSize }), []);
  // A reply (live event) or new feedback (the form's mutation) invalidates the feedback domain.
  const list = usePagedQuery(feedbackKeys.list(), fetchPage);
  return (
    <div className="records-screen feedback-screen">
      {writing ? (
        <NewFeedbackForm
          onSent={() => {
            setWriting(false);
          }}
        />
      ) : (
        <div className="feedback-new">
          <Button block color="primary" onClick={() => setWriting(true)} data-testid="feedback-new">
            {t('feedback.new')}
          </Button>
        </div>
      )}
      <PagedList
        items={list.items}
        hasMore={list.hasMore}
        generation={list.generation}
        loadMore={list.loadMore}
        renderItem={(item) => <FeedbackRow key={item.id} item={item} />}
        testId="feedback-list"
      />
    </div>
  );
}
