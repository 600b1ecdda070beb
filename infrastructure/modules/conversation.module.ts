import { defineContextModule } from "#application/shared/context-module";
import { AbandonedAnswers } from "#application/conversation/abandoned-answers";
import { ConversationService } from "#application/conversation/conversation-service";
import { PassageSearch } from "#application/conversation/passage-search";
import { FirstConversationStarter } from "#application/conversation/conversation-reactors";
import { conversationsProjector } from "#projections/conversation/conversations.projector";

/** Conversations: questions, streamed answers, ratings, images. */
export const conversationModule = defineContextModule({
  name: "conversation",
  streamCategories: ["conversation"],
  services: [ConversationService, PassageSearch, AbandonedAnswers],
  projectors: [conversationsProjector],
  reactors: [FirstConversationStarter],
});
