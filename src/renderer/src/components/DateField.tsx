import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { dayFirstText, formatDay, readDayFirst } from '../../../shared/localDates';

/**
 * Every date a person types in vendesk: day first (DD/MM/YYYY), whatever the browser's language.
 * `01112026`, `1/11/2026` and `01-11-2026` are 1 November 2026. The value is the ISO day
 * (`2026-11-01`) or '' for none; what cannot be read is said under the field and not passed on.
 */
export function DateField({
  value,
  onChange,
  error,
  description,
  ...rest
}: Omit<TextInputProps, 'value' | 'onChange' | 'type'> & {
  value: string | null | undefined;
  onChange: (day: string) => void;
}) {
  const [text, setText] = useState(dayFirstText(value));
  const [problem, setProblem] = useState<string | null>(null);

  // A value set from outside (a reset, a default) is shown; what is being typed is left alone.
  useEffect(() => {
    const typed = readDayFirst(text);
    const current = 'day' in typed ? typed.day : 'empty' in typed ? '' : null;
    if (current !== (value ?? '')) {
      setText(dayFirstText(value));
      setProblem(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the value itself
  }, [value]);

  const take = (next: string) => {
    setText(next);
    const typed = readDayFirst(next);
    if ('problem' in typed) return;
    setProblem(null);
    onChange('day' in typed ? typed.day : '');
  };

  const read = readDayFirst(text);
  return (
    <TextInput
      {...rest}
      value={text}
      inputMode="numeric"
      autoComplete="off"
      placeholder="DD/MM/YYYY"
      onChange={(e) => take(e.currentTarget.value)}
      onBlur={() => {
        if ('day' in read) setText(dayFirstText(read.day));
        else if ('problem' in read) setProblem(read.problem);
      }}
      description={'day' in read ? `${formatDay(read.day)}${description ? ` · ${String(description)}` : ''}` : description}
      error={problem ?? error}
    />
  );
}
