package dev.blockcache.bucket.persist;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Documents that a field may only be read or written while holding the named lock (read-only by people). */
@Documented
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.FIELD)
@interface GuardedBy {
  /** The lock, e.g. {@code "lock"}. */
  String value();
}
