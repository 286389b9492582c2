package io.ytstream.spark.types;

import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.HintedRead;

/**
 * A hinted column's values ({@link ColumnHints}) in Spark's form: each row value read as the hinted
 * type by yt-types' {@link HintedRead}, then mapped as a value of that type. A value that does not
 * fit fails the task naming the option, the column and the place inside the value.
 */
final class HintedValues implements ValueConverter {

  private static final long serialVersionUID = 1L;

  private final String column;
  private final YtTypeRef columnType;
  private final YtTypeRef target;
  private final String option;
  private final ValueConverter toSpark;

  /** The decision, made again on each executor from the two types (types are not shipped). */
  private transient HintedRead read;

  HintedValues(
      String column, YtType columnType, YtType target, String option, ValueConverter toSpark) {
    this.column = column;
    this.columnType = new YtTypeRef(columnType);
    this.target = new YtTypeRef(target);
    this.option = option;
    this.toSpark = toSpark;
  }

  @Override
  public Object convert(Object value) {
    if (value == null) {
      return null;
    }
    Object rowValue = value instanceof TextSlice t ? t.toBytes() : value;
    try {
      return toSpark.convert(read().convert(rowValue, "column " + column));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "option "
              + option
              + ": "
              + e.getMessage()
              + ". The value does not fit the hinted type: widen the hint (a nullable field, a"
              + " larger number type), or remove the option and read the column as "
              + columnType.get().describe(),
          e);
    }
  }

  private HintedRead read() {
    HintedRead r = read;
    if (r == null) {
      HintedRead.Decision d = HintedRead.decide(columnType.get(), target.get());
      r = ((HintedRead.Accepted) d).read();
      read = r;
    }
    return r;
  }
}
