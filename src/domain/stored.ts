// What every stored resource has beside what a client sets.

/** A resource as stored: its id, when it was created and when it last changed. */
export interface Stored {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}
