package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.util.Optional;
import java.util.OptionalInt;

/** A write a transaction holds until commit; nobody sees it before (the transaction included). */
sealed interface BufferedWrite {

  YPath table();

  /** An append to an ordered table; without a tablet the commit picks one round-robin. */
  record OrderedAppend(YPath table, OptionalInt tablet, Row data) implements BufferedWrite {}

  /** An upsert (row present) or a delete (row empty) of one sorted-table key. */
  record SortedWrite(YPath table, RowKey key, Optional<Row> row) implements BufferedWrite {}
}
