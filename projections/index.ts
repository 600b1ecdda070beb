/** Every projector of every context, as the context modules declare them (infrastructure/modules). */
export { allProjectors } from "#infrastructure/modules/index";
