import { Eye, EyeOff } from 'lucide-react';
import { type ComponentProps, type Ref, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { cn } from '../../lib/cn';
import { TextField } from './form-field';

type PasswordFieldProps = Omit<ComponentProps<typeof TextField>, 'type'> & { ref?: Ref<HTMLInputElement> };

/**
 * A password field with a "Show password" toggle beside the text: a real button (type=button, so it never
 * submits), its state in aria-pressed, its name constant. Showing or hiding keeps the caret and the
 * selection where they were, and a click leaves the focus in the field.
 */
export function PasswordField({ ref, className, ...props }: PasswordFieldProps) {
  const [shown, setShown] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const selection = useRef<[number | null, number | null] | null>(null);
  const setRefs = useCallback(
    (element: HTMLInputElement | null) => {
      input.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );

  // Changing the input's type may reset its selection in some browsers: put it back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each toggle, which `shown` marks
  useLayoutEffect(() => {
    const element = input.current;
    const kept = selection.current;
    selection.current = null;
    if (!element || !kept || document.activeElement !== element) return;
    element.setSelectionRange(kept[0], kept[1]);
    // Some Chromium versions (Debian's 150) reset it once more after the change has been laid out.
    requestAnimationFrame(() => {
      if (document.activeElement === element) element.setSelectionRange(kept[0], kept[1]);
    });
  }, [shown]);

  return (
    <div className="relative">
      <TextField
        {...props}
        ref={setRefs}
        type={shown ? 'text' : 'password'}
        // the browser must not offer to correct or capitalise a password shown as text
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className={cn('pr-11', className)}
      />
      <button
        type="button"
        aria-pressed={shown}
        aria-label="Show password"
        title={shown ? 'Hide password' : 'Show password'}
        // the field keeps the focus (and its caret) when the toggle is clicked
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => {
          const element = input.current;
          if (element) selection.current = [element.selectionStart, element.selectionEnd];
          setShown((value) => !value);
        }}
        className="absolute top-7 right-1 inline-flex size-10 items-center justify-center rounded-md text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {shown ? (
          <EyeOff aria-hidden="true" className="size-5" />
        ) : (
          <Eye aria-hidden="true" className="size-5" />
        )}
      </button>
    </div>
  );
}
