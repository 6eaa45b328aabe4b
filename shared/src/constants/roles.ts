/** Numeric roles, identical at workspace and project level (product-domain §6). */
export const ROLE = { admin: 20, member: 15, guest: 5 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = [ROLE.admin, ROLE.member, ROLE.guest];

export const ROLE_NAME: Record<Role, "admin" | "member" | "guest"> = {
  20: "admin",
  15: "member",
  5: "guest",
};

export function isRole(value: unknown): value is Role {
  return value === 20 || value === 15 || value === 5;
}

/** "Member and above" means role >= 15. */
export function isMemberOrAbove(role: number | null | undefined): boolean {
  return (role ?? 0) >= ROLE.member;
}
