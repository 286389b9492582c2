package io.ytstream.ports.contract;

import io.ytstream.ports.TableDescription.Column;

/** Short names for schema columns in tests. */
public final class Columns {

  private Columns() {}

  public static Column key(String name, String type) {
    return new Column(name, type, true, false);
  }

  public static Column value(String name, String type) {
    return new Column(name, type, false, false);
  }

  public static Column required(String name, String type) {
    return new Column(name, type, false, true);
  }
}
