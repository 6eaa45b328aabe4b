/** How users appear in API responses (snake_case, never the password hash). */
import type { users } from "../db/schema.ts";

type UserRow = typeof users.$inferSelect;

/** The signed-in user's own view of themselves. */
export function presentMe(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    avatar_url: user.avatarUrl,
    cover_image_url: user.coverImageUrl,
    is_active: user.isActive,
    is_bot: user.isBot,
    is_email_verified: user.isEmailVerified,
    is_password_autoset: user.isPasswordAutoset,
    last_login_at: user.lastLoginAt,
    date_joined: user.createdAt,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

/** Another member as teammates see them (member lists, pickers). */
export function presentMemberUser(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    avatar: user.avatarUrl,
    avatar_url: user.avatarUrl,
    is_bot: user.isBot,
    joining_date: user.createdAt,
  };
}
