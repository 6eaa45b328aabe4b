/**
 * API set-up for the work-item specs: a user of their own (signed up through the HTML form with
 * the CSRF token, then onboarded), a workspace and a project, so a spec depends on nothing but
 * the instance administrator that 01-foundation creates. Calls go through `page.request`, which
 * shares its cookies with the page; unsafe methods carry the app's Origin, as the browser would.
 */
import { expect, type Page } from "@playwright/test";
import { mailCount, waitForMagicCode } from "./mail-log.ts";

export type Fixture = {
  slug: string;
  projectId: string;
  identifier: string;
  states: { id: string; name: string; group: string }[];
};

export class WorkItemsApi {
  readonly page: Page;
  readonly origin: string;

  constructor(page: Page, origin: string) {
    this.page = page;
    this.origin = origin;
  }

  private async call<T>(method: "POST" | "PATCH" | "DELETE", url: string, data?: unknown): Promise<T> {
    const response = await this.page.request.fetch(url, { method, data, headers: { Origin: this.origin } });
    expect(response.ok(), `${method} ${url} → ${response.status()} ${await response.text()}`).toBe(true);
    // 204 No Content (deletes) has no body to read.
    return (response.status() === 204 ? undefined : await response.json()) as T;
  }

  async get<T>(url: string): Promise<T> {
    const response = await this.page.request.get(url);
    expect(response.ok(), `GET ${url} → ${response.status()}`).toBe(true);
    return (await response.json()) as T;
  }

  post<T>(url: string, data: unknown): Promise<T> {
    return this.call<T>("POST", url, data);
  }

  patch<T>(url: string, data: unknown): Promise<T> {
    return this.call<T>("PATCH", url, data);
  }

  delete(url: string): Promise<void> {
    return this.call<void>("DELETE", url);
  }

  /** The signed-in user (id, names). */
  me(): Promise<{ id: string; first_name: string; last_name: string; email: string }> {
    return this.get("/api/users/me/");
  }

  /**
   * When this spec runs on its own (fresh database, 01-foundation not run), set the instance up
   * with 01's administrator first: nobody can sign up before that.
   */
  async ensureInstance(admin: { email: string; password: string; firstName: string; company: string }): Promise<void> {
    const { instance } = await this.get<{ instance: { is_setup_done: boolean } }>("/api/instances/");
    if (instance.is_setup_done) return;
    const { csrf_token } = await this.get<{ csrf_token: string }>("/auth/get-csrf-token/");
    const response = await this.page.request.post("/api/instances/admins/sign-up/", {
      form: {
        email: admin.email,
        password: admin.password,
        first_name: admin.firstName,
        company_name: admin.company,
        csrfmiddlewaretoken: csrf_token,
      },
      headers: { Origin: this.origin },
      maxRedirects: 0,
    });
    expect(response.headers().location ?? "", "instance set-up").not.toContain("error_code");
    // Continue as nobody: the admin's session is not this spec's user.
    await this.page.context().clearCookies();
  }

  async signUp(email: string, password: string, firstName: string, lastName: string): Promise<void> {
    const { csrf_token } = await this.get<{ csrf_token: string }>("/auth/get-csrf-token/");
    const response = await this.page.request.post("/auth/sign-up/", {
      form: { email, password, csrfmiddlewaretoken: csrf_token },
      headers: { Origin: this.origin },
      maxRedirects: 0,
    });
    expect(response.status(), `sign-up → ${response.status()}`).toBeLessThan(400);
    expect(response.headers().location ?? "", "sign-up").not.toContain("error_code");
    await this.verifyEmail(email);
    await this.patch("/api/users/me/", { first_name: firstName, last_name: lastName });
    await this.patch("/api/users/me/profile/", {
      onboarding_step: { profile_complete: true, workspace_create: true, workspace_invite: true, workspace_join: true },
    });
    await this.patch("/api/users/me/onboard/", { is_onboarded: true });
  }

  async createWorkspaceAndProject(slug: string, projectName: string, identifier: string): Promise<Fixture> {
    await this.post("/api/workspaces/", { name: slug, slug, organization_size: "2-10" });
    const project = await this.post<{ id: string }>(`/api/workspaces/${slug}/projects/`, {
      name: projectName,
      identifier,
    });
    const states = await this.get<Fixture["states"] | { results: Fixture["states"] }>(
      `/api/workspaces/${slug}/projects/${project.id}/states/`,
    );
    return { slug, projectId: project.id, identifier, states: Array.isArray(states) ? states : states.results };
  }

  /**
   * Prove the signed-in user's address with the code mailed to it (read from the server log): a
   * password sign-up does not prove it, and invitations to it stay hidden until it is proven.
   */
  async verifyEmail(email: string): Promise<void> {
    const before = mailCount(email);
    await this.post("/auth/verify-email/send/", {});
    const code = await waitForMagicCode(email, { after: before });
    await this.post("/auth/verify-email/", { code });
  }

  /** Invite `email` to the workspace as a member (the mail goes to the server log). */
  async invite(slug: string, email: string): Promise<void> {
    await this.post(`/api/workspaces/${slug}/invitations/`, { emails: [{ email, role: 15 }] });
  }

  /** Accept every pending invitation of the signed-in user (the onboarding "join" step). */
  async acceptInvitations(): Promise<void> {
    const pending = await this.get<{ id: string }[]>("/api/users/me/workspaces/invitations/");
    expect(pending.length, "a pending invitation").toBeGreaterThan(0);
    await this.post("/api/users/me/workspaces/invitations/", { invitations: pending.map((i) => i.id) });
  }

  /** Add a workspace member to the project (the caller is the project's admin). */
  async addProjectMember(f: Fixture, userId: string): Promise<void> {
    await this.post(this.projectUrl(f, "members/"), { members: [{ member_id: userId, role: 15 }] });
  }

  projectUrl(f: Fixture, rest: string): string {
    return `/api/workspaces/${f.slug}/projects/${f.projectId}/${rest}`;
  }

  createLabel(f: Fixture, name: string, color: string): Promise<{ id: string }> {
    return this.post(this.projectUrl(f, "issue-labels/"), { name, color });
  }

  createWorkItem(f: Fixture, body: Record<string, unknown>): Promise<WorkItemJson> {
    return this.post(this.projectUrl(f, "issues/"), body);
  }

  updateWorkItem(f: Fixture, id: string, body: Record<string, unknown>): Promise<WorkItemJson> {
    return this.patch(this.projectUrl(f, `issues/${id}/`), body);
  }

  deleteWorkItem(f: Fixture, id: string): Promise<void> {
    return this.delete(this.projectUrl(f, `issues/${id}/`));
  }

  /** A comment on a work item; `html` may carry `<mention-component>`s (see mentionHtml). */
  comment(f: Fixture, issueId: string, html: string): Promise<{ id: string }> {
    return this.post(this.projectUrl(f, `issues/${issueId}/comments/`), { comment_html: html });
  }

  /** Every work item of the project (one page is plenty for a spec's handful). */
  async workItems(f: Fixture): Promise<WorkItemJson[]> {
    const page = await this.get<{ results: WorkItemJson[] | Record<string, { results: WorkItemJson[] }> }>(
      this.projectUrl(f, "issues/?per_page=100"),
    );
    return Array.isArray(page.results) ? page.results : Object.values(page.results).flatMap((g) => g.results);
  }

  /** The item named so, or undefined while the server has none yet (for polls). */
  async findByName(f: Fixture, name: string): Promise<WorkItemJson | undefined> {
    return (await this.workItems(f)).find((i) => i.name === name);
  }

  async byName(f: Fixture, name: string): Promise<WorkItemJson> {
    const item = (await this.workItems(f)).find((i) => i.name === name);
    expect(item, `work item "${name}" exists`).toBeTruthy();
    return item as WorkItemJson;
  }
}

export type WorkItemJson = {
  id: string;
  name: string;
  sequence_id: number;
  state_id: string;
  priority: string;
  label_ids: string[];
  parent_id: string | null;
};

/** A user mention as the editor writes it (live-server/src/notifications/mentions.ts reads it). */
export function mentionHtml(userId: string, label: string): string {
  return `<mention-component entity_identifier="${userId}" entity_name="user_mention" label="${label}"></mention-component>`;
}
