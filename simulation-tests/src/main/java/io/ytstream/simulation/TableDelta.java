package io.ytstream.simulation;

import io.ytstream.ports.Row;
import java.util.List;

/**
 * How a table changed since the checker last looked: rows that went away (trimmed, overwritten or
 * deleted), rows that appeared (in table order), and how many rows it holds now.
 */
record TableDelta(List<Row> removed, List<Row> added, long rowCount) {}
