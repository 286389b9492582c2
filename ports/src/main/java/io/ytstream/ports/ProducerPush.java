package io.ytstream.ports;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One {@code push_queue_producer}: rows for a queue through a session, fenced by {@code epoch}.
 *
 * <p>Rows are numbered either by {@code firstSequenceNumber} (row i gets {@code first + i}) or each
 * by its own {@code $sequence_number} column, never both. A row may name its tablet with {@code
 * $tablet_index}. {@code userMeta}, a value of the YSON model of {@link
 * io.ytstream.types.yson.Yson}, replaces the session's when given.
 */
public record ProducerPush(
    ProducerSessionId session,
    long epoch,
    OptionalLong firstSequenceNumber,
    List<Row> rows,
    Optional<Object> userMeta) {

  /** The column that numbers a row when {@code firstSequenceNumber} is not given. */
  public static final String SEQUENCE_NUMBER = "$sequence_number";

  public ProducerPush {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(firstSequenceNumber, "firstSequenceNumber");
    rows = List.copyOf(rows);
    userMeta = userMeta == null ? Optional.empty() : userMeta;
  }

  /** Rows numbered {@code first, first + 1, ...}, the session's user_meta left as it is. */
  public static ProducerPush numberedFrom(
      ProducerSessionId session, long epoch, long first, List<Row> rows) {
    return new ProducerPush(session, epoch, OptionalLong.of(first), rows, Optional.empty());
  }

  /** The same push, setting the session's user_meta to {@code userMeta}. */
  public ProducerPush withUserMeta(Object userMeta) {
    return new ProducerPush(
        session, epoch, firstSequenceNumber, rows, Optional.of(Objects.requireNonNull(userMeta)));
  }
}
