import { defineContextModule } from "#application/shared/context-module";
import { CommunityQueries } from "#application/community/community-queries";
import { CommunityDeletionReactions, CommunityNameRelease, ContributionAttacher } from "#application/community/community-reactors";
import { CommunityService } from "#application/community/community-service";
import { communitiesProjector } from "#projections/community/communities.projector";

/** Communities: shared document libraries with roles, joining, contributions and moderation (issue 17). */
export const communityModule = defineContextModule({
  name: "community",
  // community-…, and the name reservations community-name-…
  streamCategories: ["community", "community-name"],
  services: [CommunityService, CommunityQueries],
  projectors: [communitiesProjector],
  reactors: [CommunityNameRelease, ContributionAttacher, CommunityDeletionReactions],
});
