/**
 * Attachments: a drop zone and a file button, uploads with their progress (whole percent) and a
 * cancel button ("Upload canceled"), files over 5 MB refused before anything is sent, the list
 * with name, size and type, download links, and delete with a confirmation.
 */
import { MAX_ATTACHMENT_SIZE } from "@tideline/shared";
import { FileText, Paperclip, Trash2, Upload as UploadIcon, X } from "lucide-react";
import { type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type Attachment,
  cancelUpload,
  deleteAttachment,
  dismissUpload,
  type Upload,
  uploadAttachment,
} from "../../stores/work-item-detail";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { fileTypeLabel, formatFileSize, relativeTime } from "./format";
import { useDetail, useDetailContext } from "./use-detail";
import { Widget } from "./widget";

export function Attachments({ workItemId }: { workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const [dragging, setDragging] = useState(false);
  const [removing, setRemoving] = useState<Attachment | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const attachments = (detail?.attachments ?? []) as Attachment[];
  const uploads = (detail?.uploads ?? []) as Upload[];

  function attach(files: FileList | null) {
    if (!files) return;
    for (const file of Array.from(files)) void uploadAttachment(ctx.slug, ctx.projectId, workItemId, file);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (ctx.canEdit) attach(event.dataTransfer.files);
  }

  return (
    <Widget title={t("workItem.attachments.title")} count={attachments.length}>
      {ctx.canEdit ? (
        <label
          className={dragging ? "wid-dropzone is-dragging" : "wid-dropzone"}
          onDragOver={(e) => {
            e.preventDefault();
            e.dataTransfer.dropEffect = "copy";
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <UploadIcon size={16} aria-hidden />
          <span>
            {dragging ? (
              t("workItem.attachments.dropActive")
            ) : (
              <>
                {t("workItem.attachments.drop")}{" "}
                <span className="wid-dropzone-link">{t("workItem.attachments.browse")}</span>
              </>
            )}
          </span>
          <span className="subtle">{t("workItem.attachments.maxSize")}</span>
          <input
            ref={inputRef}
            type="file"
            multiple
            className="visually-hidden"
            aria-label={t("workItem.attachments.attach")}
            data-max-size={MAX_ATTACHMENT_SIZE}
            onChange={(e) => {
              attach(e.target.files);
              e.target.value = "";
            }}
          />
        </label>
      ) : null}

      {uploads.length ? (
        <ul className="wid-rows wid-uploads" aria-label={t("workItem.attachments.title")}>
          {uploads.map((u) => (
            <UploadRow key={u.id} upload={u} workItemId={workItemId} />
          ))}
        </ul>
      ) : null}

      {attachments.length === 0 && uploads.length === 0 && !ctx.canEdit ? (
        <p className="wid-empty">{t("workItem.attachments.empty")}</p>
      ) : null}
      <ul className="wid-rows">
        {attachments.map((a) => (
          <li key={a.id} className="wid-row wid-file-row">
            <span className="wid-file-type" aria-hidden>
              {fileTypeLabel(a.attributes.type, a.attributes.name)}
            </span>
            <div className="wid-file-text">
              <a
                className="wid-row-name"
                href={a.asset_url}
                download={a.attributes.name}
                aria-label={t("workItem.attachments.download", { name: a.attributes.name })}
              >
                {a.attributes.name}
              </a>
              <span className="subtle wid-file-sub">
                {formatFileSize(a.attributes.size)} · {a.attributes.type || "—"} · {relativeTime(a.created_at)}
              </span>
            </div>
            {ctx.canEdit ? (
              <button
                type="button"
                className="wid-icon-btn"
                aria-label={`${t("workItem.attachments.delete")}: ${a.attributes.name}`}
                title={t("workItem.attachments.delete")}
                onClick={() => setRemoving(a)}
              >
                <Trash2 size={13} aria-hidden />
              </button>
            ) : null}
          </li>
        ))}
      </ul>

      <ConfirmModal
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t("workItem.attachments.deleteTitle")}
        description={t("workItem.attachments.deleteDescription", { name: removing?.attributes.name ?? "" })}
        confirmLabel={t("workItem.attachments.delete")}
        onConfirm={() => {
          const target = removing;
          setRemoving(null);
          if (target) void deleteAttachment(ctx.slug, ctx.projectId, workItemId, target.id);
        }}
      />
    </Widget>
  );
}

function UploadRow({ upload, workItemId }: { upload: Upload; workItemId: string }) {
  const { t } = useTranslation();
  const active = upload.status === "uploading" || upload.status === "confirming";
  return (
    <li className={`wid-row wid-upload-row is-${upload.status}`}>
      {active ? <Paperclip size={14} aria-hidden className="subtle" /> : <FileText size={14} aria-hidden />}
      <div className="wid-file-text">
        <span className="wid-row-name">{upload.name}</span>
        {active ? (
          <div className="wid-upload-progress">
            <div
              className="wid-upload-bar"
              role="progressbar"
              aria-label={t("workItem.attachments.progressLabel", { name: upload.name })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={upload.progress}
            >
              <span style={{ width: `${upload.progress}%` }} />
            </div>
            <span className="subtle wid-upload-text">
              {upload.status === "confirming"
                ? t("workItem.attachments.confirming")
                : t("workItem.attachments.uploading", { percent: upload.progress })}
            </span>
          </div>
        ) : (
          <span className={upload.status === "failed" ? "field-error" : "subtle"} role="status">
            {upload.status === "canceled" ? t("workItem.attachments.canceled") : upload.error}
            {" · "}
            {formatFileSize(upload.size)}
          </span>
        )}
      </div>
      {upload.status === "uploading" ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`${t("workItem.attachments.cancel")}: ${upload.name}`}
          onClick={() => cancelUpload(upload.id)}
        >
          {t("workItem.attachments.cancel")}
        </button>
      ) : !active ? (
        <button
          type="button"
          className="wid-icon-btn"
          aria-label={`${t("workItem.attachments.dismiss")}: ${upload.name}`}
          onClick={() => dismissUpload(workItemId, upload.id)}
        >
          <X size={14} aria-hidden />
        </button>
      ) : null}
    </li>
  );
}
