package io.ytstream.spark.types;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.RowLayout;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtType;
import java.io.Serializable;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One column as readers and writers need it on executors: its name, Spark type, YTsaurus type (for
 * messages) and the converter between the two value forms, built on the driver.
 */
public final class ColumnSpec implements Serializable {

  private static final long serialVersionUID = 2L;

  public static final String TIMESTAMP = "$timestamp";
  public static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";

  /** Where a read column's value comes from. */
  enum Source {
    DATA,
    TIMESTAMP,
    CUMULATIVE_DATA_WEIGHT,
    /** A DataFrame column the sink leaves out (a queue's system column, which YTsaurus sets). */
    NOT_WRITTEN
  }

  private final String name;
  private final DataType sparkType;
  private final boolean nullable;
  private final String ytType;
  private final ValueConverter converter;
  private final Source source;
  private final Shortcut shortcut;

  /** A read column whose values a flat pull may hold unboxed: taken without the port's value. */
  enum Shortcut {
    NONE,
    /** int64 to Spark's long, the same value. */
    LONG,
    /** string or utf8 to Spark's string, pointing into the answer's bytes. */
    TEXT
  }

  private ColumnSpec(
      String name,
      DataType sparkType,
      boolean nullable,
      String ytType,
      ValueConverter converter,
      Source source) {
    this(name, sparkType, nullable, ytType, converter, source, Shortcut.NONE);
  }

  private ColumnSpec(
      String name,
      DataType sparkType,
      boolean nullable,
      String ytType,
      ValueConverter converter,
      Source source,
      Shortcut shortcut) {
    this.name = name;
    this.sparkType = sparkType;
    this.nullable = nullable;
    this.ytType = ytType;
    this.converter = converter;
    this.source = source;
    this.shortcut = shortcut;
  }

  /** A queue column read into Spark. */
  public static ColumnSpec forRead(String name, YtType type, boolean typeV3) {
    YtToSpark.Mapped m = YtToSpark.column(type, typeV3);
    return new ColumnSpec(
        name, m.type(), true, type.describe(), m.converter(), Source.DATA, shortcutOf(type, m));
  }

  /**
   * A queue column read as a hinted type ({@link ColumnHints}), which {@link
   * io.ytstream.types.value.HintedRead} accepted for the column's type.
   */
  static ColumnSpec hinted(String name, YtType column, YtType target, String option) {
    YtToSpark.Mapped m = YtToSpark.map(target);
    return new ColumnSpec(
        name,
        m.type(),
        true,
        column.describe(),
        new HintedValues(name, column, target, option, m.converter()),
        Source.DATA);
  }

  /** As the converter maps them: tagged and optional (of a non-optional) read as their item. */
  private static Shortcut shortcutOf(YtType type, YtToSpark.Mapped mapped) {
    YtType t = type;
    while (true) {
      if (t instanceof YtTagged tagged) {
        t = tagged.item();
      } else if (t instanceof YtOptional o && !o.item().isNullable()) {
        t = o.item();
      } else {
        break;
      }
    }
    if (t == YtPrimitive.INT64 && mapped.type().equals(DataTypes.LongType)) {
      return Shortcut.LONG;
    }
    boolean text = t == YtPrimitive.STRING || t == YtPrimitive.UTF8;
    return text && mapped.type().equals(DataTypes.StringType) ? Shortcut.TEXT : Shortcut.NONE;
  }

  /**
   * A system column of the queue ({@code $timestamp}, {@code $cumulative_data_weight}), read as a
   * Spark long: a commit timestamp is a uint64 below 2^63, so long holds it.
   */
  static ColumnSpec systemColumn(String name, YtType type) {
    Source source = name.equals(TIMESTAMP) ? Source.TIMESTAMP : Source.CUMULATIVE_DATA_WEIGHT;
    return new ColumnSpec(name, DataTypes.LongType, true, type.describe(), v -> v, source);
  }

  /** A DataFrame column written into the output table, with its checked converter. */
  public static ColumnSpec forWrite(
      String name, DataType sparkType, YtType type, ValueConverter toYt) {
    return new ColumnSpec(name, sparkType, true, type.describe(), toYt, Source.DATA);
  }

  /**
   * A DataFrame column named like a system column ({@code $timestamp}, {@code
   * $cumulative_data_weight}) that the output table has no data column for: left out, since
   * YTsaurus sets these itself. A source read with {@code include_service_columns} carries them.
   */
  public static ColumnSpec notWritten(String name, DataType sparkType) {
    return new ColumnSpec(name, sparkType, true, "-", v -> null, Source.NOT_WRITTEN);
  }

  public String name() {
    return name;
  }

  public DataType sparkType() {
    return sparkType;
  }

  boolean nullable() {
    return nullable;
  }

  String ytType() {
    return ytType;
  }

  /**
   * This column's value of a queue row, in Spark's internal form, given the column's position in
   * the row's layout ({@link #positionIn}): readers resolve it once per layout, not per value.
   */
  Object read(QueueRow row, int position) {
    return switch (source) {
      case DATA -> converter.convert(position < 0 ? null : row.data().valueAt(position));
      case TIMESTAMP -> boxed(row.timestamp());
      case CUMULATIVE_DATA_WEIGHT -> boxed(row.cumulativeDataWeight());
      case NOT_WRITTEN -> null;
    };
  }

  /**
   * As {@link #read}, for row {@code row} of {@code batch}, set into {@code out} at {@code field}:
   * a value the batch holds unboxed goes in without a box or a copy.
   */
  void readInto(QueueRowBatch batch, int row, int position, InternalRow out, int field) {
    switch (source) {
      case DATA -> {
        if (position >= 0) {
          if (shortcut == Shortcut.LONG && batch.hasLongAt(row, position)) {
            out.setLong(field, batch.longAt(row, position));
            return;
          }
          if (shortcut == Shortcut.TEXT) {
            int length = batch.textLength(row, position);
            if (length >= 0) {
              // The answer's bytes are never changed: Spark's string can point into them.
              out.update(
                  field,
                  UTF8String.fromAddress(
                      batch.textArray(row, position),
                      Platform.BYTE_ARRAY_OFFSET + batch.textOffset(row, position),
                      length));
              return;
            }
          }
        }
        out.update(field, converter.convert(position < 0 ? null : batch.valueAt(row, position)));
      }
      case TIMESTAMP -> out.update(field, boxed(batch.timestamp(row)));
      case CUMULATIVE_DATA_WEIGHT -> out.update(field, boxed(batch.cumulativeDataWeight(row)));
      case NOT_WRITTEN -> out.setNullAt(field);
    }
  }

  /** Where this column's value is in rows of {@code layout}; -1 when absent or not data. */
  int positionIn(RowLayout layout) {
    return source == Source.DATA ? layout.positionOf(name) : -1;
  }

  private static Long boxed(OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }

  /** Whether the column goes into the output table's rows. */
  public boolean isWritten() {
    return source != Source.NOT_WRITTEN;
  }

  /** A DataFrame value (Catalyst form) as the table's row value. */
  public Object toYt(Object sparkValue) {
    return converter.convert(sparkValue);
  }

  @Override
  public String toString() {
    return name + ":" + ytType;
  }
}
