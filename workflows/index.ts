/** Every workflow definition, as the context modules declare them (infrastructure/modules). */
export { allWorkflows } from "#infrastructure/modules/index";
