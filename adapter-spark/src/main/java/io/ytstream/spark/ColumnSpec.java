package io.ytstream.spark;

import java.io.Serializable;
import org.apache.spark.sql.types.DataType;

/** One column as readers and writers need it on executors: name, Spark type, YTsaurus type. */
final class ColumnSpec implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String name;
  private final DataType sparkType;
  private final String ytType;

  ColumnSpec(String name, DataType sparkType, String ytType) {
    this.name = name;
    this.sparkType = sparkType;
    this.ytType = ytType;
  }

  String name() {
    return name;
  }

  DataType sparkType() {
    return sparkType;
  }

  String ytType() {
    return ytType;
  }

  @Override
  public String toString() {
    return name + ":" + ytType;
  }
}
