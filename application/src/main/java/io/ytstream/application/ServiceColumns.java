package io.ytstream.application;

/**
 * The service columns a source row carries when asked ({@code include_service_columns}): its
 * position in the queue. The idempotent receiver keys its output by them, so a replayed row
 * overwrites itself. The first two are SPYT's names.
 */
public final class ServiceColumns {

  /** The row's queue partition. */
  public static final String TABLET_INDEX = "__spyt_streaming_src_tablet_index";

  /** The row's {@code $row_index} in its partition. */
  public static final String ROW_INDEX = "__spyt_streaming_src_row_index";

  /** The row's queue, present when a query reads several queues. */
  public static final String QUEUE = "__ytstream_src_queue";

  private ServiceColumns() {}
}
