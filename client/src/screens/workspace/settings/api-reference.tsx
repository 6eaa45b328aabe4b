import { ArrowLeft, BookOpen } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Spinner } from "../../../components/ui";
import { SettingsHeading } from "../components/settings-parts";
import { useCurrentWorkspace } from "../use-workspace";
import "./api-tokens.css";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  format?: string;
  maxLength?: number;
  description?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string };
type Operation = {
  summary: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, unknown>;
};
type Document = {
  info: { title: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

/** A schema's type in a few words: "string", "uuid | null", "one of low, high". */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (schema.enum) return schema.enum.map(String).join(" | ");
  if (schema.anyOf) return schema.anyOf.map(typeOf).filter(Boolean).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array") return `${typeOf(schema.items)}[]`;
  return schema.format ? `${type} (${schema.format})` : type;
}

/**
 * Settings → API tokens → API reference: the public API described by /api/v1/openapi.json,
 * which the server generates from its routes. Loaded only when opened.
 */
export function WorkspaceApiReference() {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const [doc, setDoc] = useState<Document | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    fetch("/api/v1/openapi.json")
      .then((res) => (res.ok ? (res.json() as Promise<Document>) : Promise.reject(new Error(String(res.status)))))
      .then((d) => live && setDoc(d))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, methods] of Object.entries(doc?.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? "";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }

  return (
    <>
      <SettingsHeading
        title={t("settings.apiTokens.referenceTitle")}
        hint={
          <Link to={`/${slug}/settings/api-tokens/`} className="api-token-doc-link">
            <ArrowLeft size={13} aria-hidden />
            {t("settings.apiTokens.title")}
          </Link>
        }
      />
      <section className="settings-section api-ref-intro">
        <p>{t("settings.apiTokens.referenceIntro")}</p>
        <pre className="api-ref-code">
          {`curl -H "X-API-Key: tideline_api_…" \\\n  ${origin}/api/v1/workspaces/${slug}/projects/`}
        </pre>
        <p className="muted">
          <BookOpen size={13} aria-hidden /> {t("settings.apiTokens.referenceRaw")}{" "}
          <a href="/api/v1/openapi.json" target="_blank" rel="noreferrer">
            /api/v1/openapi.json
          </a>
        </p>
      </section>
      {failed ? (
        <p className="muted">{t("workspace.loadFailed")}</p>
      ) : !doc ? (
        <Spinner />
      ) : (
        [...byTag.entries()].map(([tag, ops]) => (
          <section key={tag} aria-labelledby={`api-tag-${tag}`}>
            <h2 className="api-ref-tag" id={`api-tag-${tag}`}>
              {tag}
            </h2>
            <ul className="api-ref-ops">
              {ops.map(({ method, path, op }) => (
                <li key={`${method} ${path}`} className="api-ref-op">
                  <details>
                    <summary>
                      <span className={`api-ref-method api-ref-method-${method}`}>{method}</span>
                      <span className="api-ref-path">{path}</span>
                      <span className="api-ref-summary">{op.summary}</span>
                    </summary>
                    <OperationBody op={op} />
                  </details>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}

function OperationBody({ op }: { op: Operation }) {
  const { t } = useTranslation();
  const params = op.parameters ?? [];
  const body = op.requestBody?.content["application/json"].schema;
  const required = new Set(body?.required ?? []);
  return (
    <div className="api-ref-body">
      {params.length ? (
        <table className="api-ref-fields">
          <caption className="visually-hidden">{t("settings.apiTokens.parameters")}</caption>
          <thead>
            <tr>
              <th>{t("settings.apiTokens.parameters")}</th>
              <th>{t("settings.apiTokens.in")}</th>
              <th>{t("settings.apiTokens.type")}</th>
            </tr>
          </thead>
          <tbody>
            {params.map((p) => (
              <tr key={`${p.in}-${p.name}`}>
                <td>
                  <code>{p.name}</code>
                  {p.required ? " *" : ""}
                </td>
                <td>{p.in}</td>
                <td>
                  {typeOf(p.schema)}
                  {p.description ? <span className="muted"> — {p.description}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {body?.properties ? (
        <table className="api-ref-fields">
          <caption className="visually-hidden">{t("settings.apiTokens.bodyFields")}</caption>
          <thead>
            <tr>
              <th>{t("settings.apiTokens.bodyFields")}</th>
              <th colSpan={2}>{t("settings.apiTokens.type")}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(body.properties).map(([name, schema]) => (
              <tr key={name}>
                <td>
                  <code>{name}</code>
                  {required.has(name) ? " *" : ""}
                </td>
                <td colSpan={2}>{typeOf(schema)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted">{t("settings.apiTokens.answers", { statuses: Object.keys(op.responses).join(", ") })}</p>
    </div>
  );
}
