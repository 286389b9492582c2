package io.ytstream.ytsaurus;

import io.ytstream.ports.Row;
import io.ytstream.types.v3.YtType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Rows cut into request bodies of binary YSON, handed on as each reaches {@code chunkBytes} (it may
 * pass it by one group of rows): what an append holds at once is one chunk and a few rows, however
 * many rows it is given.
 */
final class StaticTableChunks {

  /** Rows encoded together: few enough to keep small, enough to encode a layout once. */
  private static final int ROWS_PER_ENCODE = 64;

  private final YsonRows codec;
  private final Map<String, YtType> types;
  private final int chunkBytes;
  private final Consumer<byte[]> send;
  private final List<Row> pending = new ArrayList<>(ROWS_PER_ENCODE);
  private final ByteArrayOutputStream chunk = new ByteArrayOutputStream();

  StaticTableChunks(
      YsonRows codec, Map<String, YtType> types, int chunkBytes, Consumer<byte[]> send) {
    this.codec = codec;
    this.types = types;
    this.chunkBytes = chunkBytes;
    this.send = send;
  }

  void add(Row row) {
    pending.add(row);
    if (pending.size() >= ROWS_PER_ENCODE) {
      encodePending();
    }
  }

  /** Sends what is left; nothing when no row was added since the last chunk. */
  void flush() {
    encodePending();
    if (chunk.size() > 0) {
      sendChunk();
    }
  }

  /** Each encoded row ends with {@code ;}, so encoded groups join into one list fragment. */
  private void encodePending() {
    if (pending.isEmpty()) {
      return;
    }
    chunk.writeBytes(codec.encode(pending, types));
    pending.clear();
    if (chunk.size() >= chunkBytes) {
      sendChunk();
    }
  }

  private void sendChunk() {
    byte[] body = chunk.toByteArray();
    chunk.reset();
    send.accept(body);
  }
}
