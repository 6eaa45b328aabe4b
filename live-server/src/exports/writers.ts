/**
 * Export file writers: rows go in batch by batch and out to a file stream, so an export of any
 * size is written in bounded memory. csv through csv-stringify, xlsx through exceljs's streaming
 * WorkbookWriter (rows committed as they are added), json as a streamed array.
 *
 * Formula injection (OWASP "CSV injection"): in csv and xlsx a text cell starting with
 * = + - @ tab or carriage return is prefixed with a single quote, so a spreadsheet shows it as
 * text instead of running it. json is data, not a sheet: its values are written as they are.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify";
// Types only: exceljs is loaded by the first xlsx export (about 20 MB of the server's memory that
// an instance which never exports would hold for nothing; measured with a probe, RSS after GC).
import type ExcelJS from "exceljs";

export const EXPORT_PROVIDERS = ["csv", "xlsx", "json"] as const;
export type ExportProvider = (typeof EXPORT_PROVIDERS)[number];

/** A column of the export: its key (json) and its heading (csv, xlsx). */
export type ExportColumn = { key: string; header: string; width?: number };

/** One row: the value of each column key (strings, numbers or null; lists joined already). */
export type ExportRow = Record<string, string | number | null>;

export const CONTENT_TYPES: Record<ExportProvider, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  json: "application/json",
};

/** A spreadsheet cell that would start a formula gets a leading ' (OWASP CSV injection). */
export function neutraliseFormula<T>(value: T): T | string {
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(value)) return `'${value}`;
  return value;
}

export interface ExportWriter {
  /** Write a batch of rows; resolves once the file stream can take more. */
  write(rows: readonly ExportRow[]): Promise<void>;
  /** Finish the file; resolves once every byte is flushed to the target. */
  end(): Promise<void>;
}

/** Write `chunk` to `target`, waiting for it to drain when its buffer is full. */
async function push(target: Writable, chunk: string): Promise<void> {
  if (!target.write(chunk)) await once(target, "drain");
}

async function finish(target: Writable): Promise<void> {
  if (target.writableFinished) return;
  target.end();
  await once(target, "finish");
}

class CsvWriter implements ExportWriter {
  private readonly stringifier;
  private readonly target: Writable;
  private readonly columns: readonly ExportColumn[];
  private readonly done: Promise<void>;

  constructor(target: Writable, columns: readonly ExportColumn[]) {
    this.target = target;
    this.columns = columns;
    // A byte-order mark so spreadsheets read the file as UTF-8; CRLF as RFC 4180 has it.
    this.stringifier = stringify({
      bom: true,
      header: true,
      record_delimiter: "windows",
      columns: columns.map((c) => ({ key: c.key, header: neutraliseFormula(c.header) })),
      cast: { number: (value) => String(value) },
    });
    this.stringifier.pipe(target);
    this.done = new Promise((resolve, reject) => {
      target.once("finish", resolve);
      target.once("error", reject);
      this.stringifier.once("error", reject);
    });
  }

  async write(rows: readonly ExportRow[]): Promise<void> {
    for (const row of rows) {
      const record: Record<string, unknown> = {};
      for (const column of this.columns) record[column.key] = neutraliseFormula(row[column.key] ?? "");
      if (!this.stringifier.write(record)) await once(this.stringifier, "drain");
    }
    // The stringifier's own buffer drained; the file stream's is the pipe's concern.
    if (this.target.writableNeedDrain) await once(this.target, "drain");
  }

  async end(): Promise<void> {
    this.stringifier.end();
    await this.done;
  }
}

class XlsxWriter implements ExportWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private readonly target: Writable;
  private readonly columns: readonly ExportColumn[];
  private readonly done: Promise<void>;

  constructor(excel: typeof ExcelJS, target: Writable, columns: readonly ExportColumn[], sheetName: string) {
    this.target = target;
    this.columns = columns;
    this.done = new Promise((resolve, reject) => {
      target.once("finish", resolve);
      target.once("error", reject);
    });
    // Inline strings (no shared-string table held in memory until the end), no styles.
    this.workbook = new excel.stream.xlsx.WorkbookWriter({
      stream: target,
      useSharedStrings: false,
      useStyles: false,
    });
    this.sheet = this.workbook.addWorksheet(sheetName);
    this.sheet.columns = columns.map((c) => ({
      key: c.key,
      header: String(neutraliseFormula(c.header)),
      width: c.width,
    }));
  }

  async write(rows: readonly ExportRow[]): Promise<void> {
    for (const row of rows) {
      const values: Record<string, unknown> = {};
      for (const column of this.columns) values[column.key] = neutraliseFormula(row[column.key] ?? null);
      this.sheet.addRow(values).commit();
    }
    if (this.target.writableNeedDrain) await once(this.target, "drain");
  }

  async end(): Promise<void> {
    this.sheet.commit();
    await this.workbook.commit();
    await this.done;
  }
}

class JsonWriter implements ExportWriter {
  private readonly target: Writable;
  private readonly columns: readonly ExportColumn[];
  private first = true;

  constructor(target: Writable, columns: readonly ExportColumn[]) {
    this.target = target;
    this.columns = columns;
  }

  async write(rows: readonly ExportRow[]): Promise<void> {
    if (!rows.length) return;
    let chunk = "";
    for (const row of rows) {
      const record: Record<string, unknown> = {};
      for (const column of this.columns) record[column.key] = row[column.key] ?? null;
      chunk += `${this.first ? "[\n" : ",\n"}${JSON.stringify(record)}`;
      this.first = false;
    }
    await push(this.target, chunk);
  }

  async end(): Promise<void> {
    await push(this.target, this.first ? "[]\n" : "\n]\n");
    await finish(this.target);
  }
}

/** A writer of `provider`'s format into `target` (a file stream), with `columns` in that order. */
export async function createExportWriter(
  provider: ExportProvider,
  target: Writable,
  columns: readonly ExportColumn[],
  sheetName = "Work items",
): Promise<ExportWriter> {
  switch (provider) {
    case "csv":
      return new CsvWriter(target, columns);
    case "xlsx":
      return new XlsxWriter((await import("exceljs")).default, target, columns, sheetName);
    case "json":
      return new JsonWriter(target, columns);
  }
}
