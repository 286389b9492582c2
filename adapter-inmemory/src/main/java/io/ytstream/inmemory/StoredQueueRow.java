package io.ytstream.inmemory;

import io.ytstream.ports.Row;

/** A committed row of an ordered tablet with the system values assigned at commit. */
record StoredQueueRow(long rowIndex, Row data, long timestamp, long cumulativeDataWeight) {}
