package io.ytstream.types.schema;

/** A column's {@code sort_order}: key columns are ascending or descending; others have none. */
public enum SortOrder {
  NONE(null),
  ASCENDING("ascending"),
  DESCENDING("descending");

  private final String jsonName;

  SortOrder(String jsonName) {
    this.jsonName = jsonName;
  }

  /** The value of the {@code sort_order} key, or null for {@link #NONE} (the key is absent). */
  public String jsonName() {
    return jsonName;
  }

  /** Whether the column is a key column. */
  public boolean isKey() {
    return this != NONE;
  }

  /** The order named by a {@code sort_order} value, or null if the name is unknown. */
  static SortOrder fromJsonName(String name) {
    for (SortOrder order : values()) {
      if (order.jsonName != null && order.jsonName.equals(name)) {
        return order;
      }
    }
    return null;
  }
}
