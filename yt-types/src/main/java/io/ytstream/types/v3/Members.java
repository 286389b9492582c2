package io.ytstream.types.v3;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/** Checks shared by the types with members or elements. */
final class Members {

  private Members() {}

  static List<YtMember> checkedMembers(String what, List<YtMember> members) {
    Objects.requireNonNull(members, what + " members");
    List<YtMember> copy = List.copyOf(members);
    TreeSet<String> seen = new TreeSet<>();
    for (int i = 0; i < copy.size(); i++) {
      String name = copy.get(i).name();
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            what + " member name \"" + name + "\" is used twice (again at member #" + i + ")");
      }
    }
    return copy;
  }

  static List<YtType> checkedElements(String what, List<YtType> elements) {
    Objects.requireNonNull(elements, what + " elements");
    return List.copyOf(elements);
  }

  static String describeMembers(String kind, List<YtMember> members) {
    StringBuilder out = new StringBuilder(kind).append('<');
    for (int i = 0; i < members.size(); i++) {
      if (i > 0) {
        out.append(';');
      }
      out.append(members.get(i).describe());
    }
    return out.append('>').toString();
  }

  static String describeElements(String kind, List<YtType> elements) {
    StringBuilder out = new StringBuilder(kind).append('<');
    for (int i = 0; i < elements.size(); i++) {
      if (i > 0) {
        out.append(';');
      }
      out.append(elements.get(i).describe());
    }
    return out.append('>').toString();
  }
}
