import { Selector, type SelectorOption, type SelectorProps } from 'antd-mobile';

type Value = string | number;

/**
 * A Selector that always keeps one choice: antd-mobile's Selector clears the value when the chosen
 * option is tapped again, which leaves a form that looked filled in without a value.
 */
export function SingleSelector<V extends Value>({
  value,
  onChange,
  onPicked,
  ...props
}: Omit<SelectorProps<V>, 'multiple' | 'onChange'> & {
  onChange?: (value: V[]) => void;
  /** Called after the choice changed (e.g. to validate a field that depends on it). */
  onPicked?: (value: V) => void;
  options: SelectorOption<V>[];
}) {
  return (
    <Selector<V>
      {...props}
      value={value}
      onChange={(next) => {
        if (next.length === 0) return;
        onChange?.(next);
        onPicked?.(next[0]!);
      }}
    />
  );
}
