// The app lock's PIN and panic code boxes (the locked screen and the settings on /security-settings).

/** A PIN or panic code box (digits, at most 8, never offered for autofill unless it is a new PIN). */
export function PinField({
  label,
  value,
  onChange,
  autoComplete = "off",
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: "off" | "new-password";
}) {
  return (
    <label>
      {label}
      <input
        type="password"
        inputMode="numeric"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={8}
      />
    </label>
  );
}
