package io.ytstream.spark.sink;

import io.ytstream.application.StaticTableTaskReport;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * A static table writer's report to the driver. A class, not a record: Kryo cannot serialize
 * records.
 */
final class StaticTableCommitMessage implements WriterCommitMessage {

  private static final long serialVersionUID = 1L;

  private final String transactionId;
  private final long epochId;
  private final long rows;

  StaticTableCommitMessage(StaticTableTaskReport report) {
    this.transactionId = report.transactionId();
    this.epochId = report.epochId();
    this.rows = report.rows();
  }

  StaticTableTaskReport toReport() {
    return new StaticTableTaskReport(transactionId, epochId, rows);
  }

  @Override
  public String toString() {
    return "StaticTableCommitMessage[tx="
        + transactionId
        + ", epoch="
        + epochId
        + ", rows="
        + rows
        + "]";
  }
}
