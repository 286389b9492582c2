package io.ytstream.types.yson;

/**
 * A binary YSON list fragment of maps written entry by entry: the bytes {@link
 * Yson#toBinaryListFragment} gives for a list of maps, without building a map per item. For rows,
 * whose columns a writer already holds in order.
 *
 * <pre>{@code
 * YsonMapListWriter out = new YsonMapListWriter();
 * out.startMap();
 * out.entry("id", 1L);
 * out.entry("payload", "a");
 * out.endMap();
 * byte[] rows = out.toByteArray();
 * }</pre>
 */
public final class YsonMapListWriter {

  private final YsonWriter writer = new YsonWriter(true);
  private int items;
  private boolean open;
  private boolean firstEntry;

  /** Opens the next map. */
  public void startMap() {
    if (open) {
      throw new IllegalStateException("a map is open: end it first");
    }
    writer.startMapItem(items);
    open = true;
    firstEntry = true;
  }

  /** One entry of the open map: a value of the model {@link Yson} writes. */
  public void entry(String key, Object value) {
    if (!open) {
      throw new IllegalStateException("no map is open: start one first");
    }
    writer.mapEntry(firstEntry, key, value);
    firstEntry = false;
  }

  /** Ends the open map. */
  public void endMap() {
    if (!open) {
      throw new IllegalStateException("no map is open");
    }
    writer.endMapItem();
    open = false;
    items++;
  }

  /** The maps written so far, each followed by {@code ;}. */
  public byte[] toByteArray() {
    if (open) {
      throw new IllegalStateException("a map is open: end it first");
    }
    return writer.toByteArray();
  }
}
