package io.ytstream.ports;

/**
 * What {@code push_queue_producer} answers: the sequence number of the push's last row (-1 for an
 * empty push) and how many of its rows were skipped because the session had already written their
 * sequence numbers.
 */
public record PushResult(long lastSequenceNumber, long skippedRowCount) {}
