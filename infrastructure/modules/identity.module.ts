import { defineContextModule } from "#application/shared/context-module";
import { AccessTokenService } from "#application/identity/access-tokens";
import { AccountStreams } from "#application/identity/account-streams";
import { AccountDeletionActivities, AccountDeletionReactor, AccountDeletionService } from "#application/identity/account-deletion";
import { ChatLayoutService } from "#application/identity/chat-layout-service";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import { KeysetModels } from "#application/identity/keyset-models";
import { KeysetService } from "#application/identity/keyset-service";
import { ProfileService } from "#application/identity/profile-service";
import { accessTokensProjector } from "#projections/identity/access-tokens.projector";
import { chatLayoutsProjector } from "#projections/identity/chat-layouts.projector";
import { keysetsProjector } from "#projections/identity/keysets.projector";
import { usersProjector } from "#projections/identity/users.projector";
import { accountDeletionWorkflow } from "#workflows/account-deletion";

/** Accounts, credentials, sessions, profile, deletion, keysets and model defaults, chat layout. */
export const identityModule = defineContextModule({
  name: "identity",
  // user-…, the reservation streams (username-, email-, oidc-), keyset-…, model-defaults-…, chat-layout-…, access-token-…
  streamCategories: ["user", "username", "email", "oidc", "keyset", "model-defaults", "chat-layout", "access-token"],
  services: [
    IdentityService,
    IdentityQueries,
    ProfileService,
    AccountDeletionService,
    AccountDeletionActivities,
    AccountStreams,
    KeysetModels,
    KeysetService,
    ChatLayoutService,
    AccessTokenService,
  ],
  projectors: [usersProjector, keysetsProjector, chatLayoutsProjector, accessTokensProjector],
  workflows: [accountDeletionWorkflow],
  reactors: [AccountDeletionReactor],
  activities: (resolve) => resolve(AccountDeletionActivities).registry(),
});
