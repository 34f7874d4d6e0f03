/** The bottom sheets of this feature (deposit form, order log). */
export const POPUP_BODY = { maxHeight: '85vh', overflowY: 'auto', borderTopLeftRadius: 12, borderTopRightRadius: 12 } as const;
