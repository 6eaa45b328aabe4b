/**
 * Rich-text pieces shared by the browser editor and the server's document schema
 * (live-server/src/live/schema.ts). A node defined once here serialises to the same HTML on
 * both sides, so content written in the live editor survives the server's derived HTML.
 * Imported as "@tideline/shared/editor" so the rest of the shared package stays free of tiptap.
 */
export { MENTION_TAG, type MentionAttributes, MentionComponent, USER_MENTION_ENTITY } from "./mention.ts";
