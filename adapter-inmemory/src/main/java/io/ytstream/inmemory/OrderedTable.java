package io.ytstream.inmemory;

import java.util.ArrayList;
import java.util.List;

/** An ordered dynamic table, i.e. a queue: partition i is tablet i. */
final class OrderedTable extends TableNode {

  private final List<OrderedTablet> tablets = new ArrayList<>();

  /** Where the next row without {@code $tablet_index} goes: round-robin, never random. */
  private int nextTabletForUntargetedRow;

  OrderedTable(StoredSchema schema, List<Long> initialTrimmedRowCounts, long nowMillis) {
    super(schema, nowMillis);
    initialTrimmedRowCounts.forEach(trimmed -> tablets.add(new OrderedTablet(trimmed)));
  }

  @Override
  int tabletCount() {
    return tablets.size();
  }

  OrderedTablet tablet(int index) {
    return tablets.get(index);
  }

  /** Grows the tablet count; new tablets are empty. */
  void growTo(int tabletCount) {
    while (tablets.size() < tabletCount) {
      tablets.add(new OrderedTablet(0));
    }
  }

  int nextTabletForUntargetedRow() {
    return nextTabletForUntargetedRow;
  }

  void setNextTabletForUntargetedRow(int tablet) {
    nextTabletForUntargetedRow = tablet;
  }
}
