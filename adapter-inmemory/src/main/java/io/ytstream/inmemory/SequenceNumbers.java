package io.ytstream.inmemory;

import io.ytstream.core.error.YtException;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.OptionalLong;

/**
 * Numbers a push's rows and finds the ones the session has already written, as the server does
 * ({@code yt/yt/ytlib/queue_client/helpers.cpp}, {@code ValidatePushQueueProducerRows}): each row
 * is numbered by its own {@code $sequence_number} or by the push's first number plus its position,
 * never both; numbers are non-negative and strictly increasing; a row numbered at or below the
 * session's last number is skipped. Since numbers increase, the skipped rows are a prefix.
 */
record SequenceNumbers(long lastSequenceNumber, int skippedRowCount) {

  static SequenceNumbers validate(
      List<Row> rows, OptionalLong firstSequenceNumber, long sessionSequenceNumber) {
    long last = -1;
    int skipped = 0;
    long next = firstSequenceNumber.orElse(0);
    for (Row row : rows) {
      Object own = row.get(ProducerPush.SEQUENCE_NUMBER);
      long number;
      if (own != null) {
        if (!(own instanceof Long || own instanceof Integer)) {
          throw new YtException(
              1,
              "Error parsing sequence number from row: "
                  + ProducerPush.SEQUENCE_NUMBER
                  + " must be an int64, got "
                  + own);
        }
        if (firstSequenceNumber.isPresent()) {
          throw invalid(
              "Only one of explicit $sequence_number or initial sequence number can be set");
        }
        number = ((Number) own).longValue();
        if (number < 0) {
          throw invalid("Sequence number " + number + " cannot be negative");
        }
      } else {
        if (firstSequenceNumber.isEmpty()) {
          throw invalid(
              "There is no $sequence_number in the row and initial sequence number was not"
                  + " received");
        }
        // A negative first number fails the monotonicity check below, as on the server.
        number = next++;
      }
      if (number <= last) {
        throw invalid("Sequence numbers are not strongly monotonic: " + number + " <= " + last);
      }
      last = number;
      if (last <= sessionSequenceNumber) {
        skipped++;
      }
    }
    return new SequenceNumbers(last, skipped);
  }

  private static YtException invalid(String message) {
    return new YtException(QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS, message);
  }
}
