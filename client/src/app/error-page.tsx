import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { dropPrepaint } from "../lib/prepaint";

export function ErrorPage({ notFound: forced = false }: { notFound?: boolean }) {
  const error = useRouteError();
  const notFound = forced || (isRouteErrorResponse(error) && error.status === 404);
  useEffect(() => dropPrepaint(), []);
  return (
    <div className="full-center" style={{ padding: 24 }}>
      <div className="stack" style={{ maxWidth: 440, textAlign: "center", alignItems: "center" }}>
        <h1>{notFound ? "Page not found" : "Something went wrong"}</h1>
        <p className="muted">
          {notFound
            ? "The page you're looking for doesn't exist or you don't have access to it."
            : "Error! Something went wrong. Please try again."}
        </p>
        <Link to="/">Go home</Link>
      </div>
    </div>
  );
}
