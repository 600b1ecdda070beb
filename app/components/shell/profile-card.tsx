import { Text } from "@radix-ui/themes";
import type { CurrentUser } from "#app/utils/session.server";

export const NAME_FADE_AFTER = 12;

export function initials(user: Pick<CurrentUser, "firstName" | "lastName" | "username">): string {
  const fromName = `${user.firstName.trim()[0] ?? ""}${user.lastName.trim()[0] ?? ""}`;
  return (fromName || user.username.slice(0, 2)).toUpperCase();
}

/** The profile picture when there is one, else the initials. Server-rendered: no JavaScript needed. */
export function Avatar({ user, size = "small" }: { user: Pick<CurrentUser, "firstName" | "lastName" | "username" | "pictureUrl">; size?: "small" | "large" }) {
  const className = `dc-avatar${size === "large" ? " dc-avatar--large" : ""}`;
  if (user.pictureUrl) {
    return <img src={user.pictureUrl} alt="" className={`${className} dc-avatar--image`} width={size === "large" ? 96 : 40} height={size === "large" ? 96 : 40} data-testid="avatar-image" />;
  }
  return (
    <span className={className} aria-hidden="true">
      {initials(user)}
    </span>
  );
}

/**
 * Spec 000 §2: '---' when either name is empty (fades after 12 chars); email or 'No email provided'.
 * The email ends in an ellipsis where the card cuts it: a fade 20 characters wide was cut mid-letter by the narrower card (issue 44).
 */
export function ProfileCard({ user, compact = false }: { user: CurrentUser; compact?: boolean }) {
  const fullName = user.firstName.trim() && user.lastName.trim() ? `${user.firstName.trim()} ${user.lastName.trim()}` : "---";
  const email = user.email.trim() || "No email provided";
  return (
    <div className="dc-profile" data-testid="profile-card">
      <Avatar user={user} />
      {compact ? null : (
        <div className="dc-profile__text">
          <Text
            as="div"
            size="2"
            weight="bold"
            className={`dc-profile__name${fullName.length > NAME_FADE_AFTER ? " dc-fade dc-fade--name" : ""}`}
            title={fullName}
          >
            {fullName}
          </Text>
          <Text
            as="div"
            size="1"
            color="gray"
            className="dc-profile__email"
            title={email}
          >
            {email}
          </Text>
        </div>
      )}
    </div>
  );
}
