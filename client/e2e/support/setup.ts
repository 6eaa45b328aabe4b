/**
 * The set-up most specs repeat: a browser context per user (so each has cookies of their own), the
 * project owner signed up with a workspace and project, and a second member brought into that
 * project through an invitation, all through the API (WorkItemsApi). Only the 01-foundation
 * administrator is assumed, and set up first when 01 has not run.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import { type Fixture, WorkItemsApi } from "./work-items-api.ts";

/** A user a spec signs up: the address and password, then the names onboarding asks for. */
export type TestUser = { email: string; password: string; first: string; last: string };

/** The instance administrator 01-foundation creates (ensureInstance creates it when 01 has not run). */
export const ADMIN = { email: "ada@acme.test", password: "Harbour-lantern-42", firstName: "Ada", company: "Acme Labs" };

export type Session = { context: BrowserContext; page: Page; api: WorkItemsApi };

/**
 * A context of its own on the app, its page and the API over that page's cookies. `prepare` runs on
 * the context before the page opens, for what must be in place before any page does (an init
 * script such as trackLiveSockets).
 */
export async function openSession(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Session> {
  const context = await browser.newContext({ ...options, baseURL: origin });
  if (prepare) await prepare(context);
  const page = await context.newPage();
  return { context, page, api: new WorkItemsApi(page, origin) };
}

/** Signs `user` up (the instance set up first if need be) and makes their workspace `slug` with one project. */
export async function signUpWithProject(
  api: WorkItemsApi,
  user: TestUser,
  project: { slug: string; name: string; identifier: string },
): Promise<Fixture> {
  await api.ensureInstance(ADMIN);
  await api.signUp(user.email, user.password, user.first, user.last);
  return api.createWorkspaceAndProject(project.slug, project.name, project.identifier);
}

/**
 * Brings `user` into the owner's project: signed up in `member`'s context, invited to the
 * workspace by `owner`, the invitation accepted, then added to the project. Returns their id.
 */
export async function addMember(
  owner: WorkItemsApi,
  member: WorkItemsApi,
  f: Fixture,
  user: TestUser,
): Promise<string> {
  await member.signUp(user.email, user.password, user.first, user.last);
  await owner.invite(f.slug, user.email);
  await member.acceptInvitations();
  const id = (await member.me()).id;
  await owner.addProjectMember(f, id);
  return id;
}
