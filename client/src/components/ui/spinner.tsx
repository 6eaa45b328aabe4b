export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label ?? "Loading"} />;
}

/** Centered loader for a whole screen or panel. */
export function ScreenLoader() {
  return (
    <div className="full-center" style={{ minHeight: "60vh" }}>
      <Spinner />
    </div>
  );
}
