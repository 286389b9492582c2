package io.ytstream.simulation.check;

/** One write request carried more rows than a chunk ({@code spark.yt.write.dynBatchSize}). */
public final class ChunkBound {

  public static final Property PROPERTY =
      new Property("ChunkBound", "write request over its chunk size");

  private ChunkBound() {}

  /** A write request to the output ({@code call}) carried {@code rows} rows. */
  public static void writeRequest(Violations out, String call, int rows, int writeChunk) {
    if (rows > writeChunk) {
      out.add(
          PROPERTY,
          call + " carried " + rows + " rows, spark.yt.write.dynBatchSize is " + writeChunk);
    }
  }
}
