type Props = { name: string; src?: string | null; size?: number };

/** A round picture, or the first letter of the name on a tinted disc. */
export function Avatar({ name, src, size = 24 }: Props) {
  const letter = (name.trim()[0] ?? "?").toUpperCase();
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }} title={name}>
      {src ? <img src={src} alt="" /> : letter}
    </span>
  );
}
