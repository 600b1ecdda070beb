import { defineContextModule } from "#application/shared/context-module";
import { COMPILE_JOB, LatexCompilation } from "#application/resume/latex-compilation";
import { ResumeQueries } from "#application/resume/resume-queries";
import { ResumeDrafter, ResumeStarter } from "#application/resume/resume-reactors";
import { ResumeService } from "#application/resume/resume-service";
import { resumesProjector } from "#projections/resume/resumes.projector";

/** Resumes of Resume Builder workspaces: versions of a LaTeX document, drafted from the documents, compiled in a sandbox (decisions 130–132). */
export const resumeModule = defineContextModule({
  name: "resume",
  streamCategories: ["resume"],
  services: [ResumeService, ResumeQueries, LatexCompilation],
  projectors: [resumesProjector],
  reactors: [ResumeStarter, ResumeDrafter],
  // Resolved per job: the service needs the job queue, which is built after the handlers are registered.
  jobs: (resolve) => ({ [COMPILE_JOB]: (payload) => resolve(LatexCompilation).runJob(payload as { userId: string; compileId: string }) }),
});
