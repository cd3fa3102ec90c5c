/** What workerData a thread of argon2id-thread.mjs is started with, so that it serves. */
export declare const ARGON2ID_THREAD: string;
/** The module's own URL: the script of the threads. */
export declare const argon2idThreadUrl: string;
