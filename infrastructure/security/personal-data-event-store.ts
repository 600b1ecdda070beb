import type {
  AppendResult,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from "#application/ports/event-store";
import { ERASED_PERSONAL_DATA, type SubjectKeyStore } from "#application/ports/personal-data";
import { openWith, sealWith } from "./sealing";

const SEALED = "$sealed";

/**
 * Wraps any event store: `data.personal` of an event whose metadata names a
 * subject is sealed with that subject's key on append and opened on read.
 * Once the key is forgotten it reads as null, everywhere, forever; the rest
 * of the event (that the account existed, when things happened) stays.
 */
export class PersonalDataEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly keys: SubjectKeyStore,
  ) {}

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    return this.inner.append(streamId, await Promise.all(events.map((e) => this.seal(e))), expectedVersion);
  }

  async readStream(streamId: string, options?: { fromVersion?: number }): Promise<RecordedEvent[]> {
    return Promise.all((await this.inner.readStream(streamId, options)).map((e) => this.open(e)));
  }

  async readAll(fromPosition: number, limit: number): Promise<RecordedEvent[]> {
    return Promise.all((await this.inner.readAll(fromPosition, limit)).map((e) => this.open(e)));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll({ ...options, onEvent: async (event) => options.onEvent(await this.open(event)) });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async seal(event: NewEvent): Promise<NewEvent> {
    const subjectId = event.metadata.subjectId;
    if (!subjectId || !("personal" in event.data) || event.data.personal == null) return event;
    const key = await this.keys.keyFor(subjectId, { create: true });
    if (!key) throw new Error(`Personal data of a forgotten subject cannot be recorded (${subjectId})`);
    const sealed = sealWith(key, Buffer.from(JSON.stringify(event.data.personal)));
    return { ...event, data: { ...event.data, personal: { [SEALED]: sealed } } };
  }

  private async open(event: RecordedEvent): Promise<RecordedEvent> {
    const personal = event.data.personal as Record<string, unknown> | null | undefined;
    const sealed = personal && typeof personal === "object" ? personal[SEALED] : undefined;
    if (typeof sealed !== "string") return event;
    const key = event.metadata.subjectId ? await this.keys.keyFor(event.metadata.subjectId, { create: false }) : null;
    const opened = key ? JSON.parse(openWith(key, sealed).toString("utf8")) : ERASED_PERSONAL_DATA;
    return { ...event, data: { ...event.data, personal: opened } };
  }
}
