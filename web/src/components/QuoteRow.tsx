/** One line of a calculator or preview: the label on the left, the figure on the right. */
export function QuoteRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="quote-row">
      <span className="quote-label">{label}</span>
      <span data-testid={testId}>{value}</span>
    </div>
  );
}
