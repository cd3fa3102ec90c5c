/** The longest a queue holds back one message before its first delivery (SQS: 15 minutes). */
export const MAX_QUEUE_DELAY_SECONDS = 900;
