import "./components.css";

/** Grey placeholder blocks the size of what is loading, so nothing jumps when it arrives. */
export function Skeleton({
  width = "100%",
  height = 14,
  radius,
}: {
  width?: number | string;
  height?: number;
  radius?: number;
}) {
  return <span className="skeleton" style={{ width, height, borderRadius: radius }} aria-hidden />;
}

/** Placeholder rows for a list (32px rows by default). */
export function SkeletonRows({ count = 4, height = 32 }: { count?: number; height?: number }) {
  return (
    <div className="skeleton-rows" role="status" aria-label="Loading">
      {Array.from({ length: count }, (_, i) => (
        // Placeholders have no identity; the index is the key.
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <div key={i} className="skeleton-row" style={{ height }}>
          <Skeleton width={20} height={20} radius={5} />
          <Skeleton width={`${40 + ((i * 17) % 35)}%`} />
        </div>
      ))}
    </div>
  );
}
