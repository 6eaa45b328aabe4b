/**
 * The set-up of route tests that watch a project's live channel (cycles, modules, views live
 * tests): a live server, a workspace with a project and its team (issues/test-support
 * createFixture), and project channels opened as one of them through a real provider.
 */
import { projectChannelName } from "@tideline/shared";
import {
  type LiveServer,
  type OpenDocument,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "../src/live/test-support.ts";
import { createFixture, type Fixture } from "../src/routes/issues/test-support.ts";

export type LiveProject = {
  s: LiveServer;
  f: Fixture;
  /** The fixture project's channel as `user` has it open, synced. */
  openProjectChannel: (user: { token: string }) => Promise<OpenDocument>;
  /** Closes the tabs it opened, then the server. */
  close: () => Promise<void>;
};

export async function startLiveProject(): Promise<LiveProject> {
  const s = await startLiveServer();
  const f = await createFixture(s);
  const tabs: Tab[] = [];
  return {
    s,
    f,
    openProjectChannel: async (user) => {
      const tab = openTab(s.url, user);
      tabs.push(tab);
      const channel = tab.open(projectChannelName(f.project.id));
      await synced(channel);
      return channel;
    },
    close: async () => {
      for (const tab of tabs) tab.destroy();
      await s.close();
    },
  };
}
