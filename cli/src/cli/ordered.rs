//! Work on several threads, results in order, in bounded memory: how the crawler commands run
//! their jobs (see [`map_in_order`]).
//!
//! Worker threads take items one at a time from a shared source, an iterator read under a lock
//! (reading is serial, the work on an item is not), and send their results to the calling
//! thread, which hands them on in the order of the items. At most `window` items are taken and
//! not yet handed on: a worker waits for a free place in the window before it takes the next
//! (backpressure), so the items in work and the results waiting for an earlier one never pass
//! the window, however long the source.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

/// Run `work` on every item of `source` on `threads` threads and hand each result to
/// `consume` in the order of the items, with at most `window` (at least 1) items between being
/// taken from the source and their result being consumed. With one thread, items are read and
/// worked on in turn. When `consume` fails, no more items are taken, and its error is returned
/// once the items in work are done.
///
/// ```ignore
/// let mut squares = Vec::new();
/// let consumed = map_in_order(4, 8, 1..=5, |n| n * n, |square| {
///     squares.push(square);
///     Ok::<(), ()>(())
/// });
/// assert_eq!((consumed, squares), (Ok(()), vec![1, 4, 9, 16, 25]));
/// ```
pub(crate) fn map_in_order<I, R, E>(
    threads: usize,
    window: usize,
    source: I,
    work: impl Fn(I::Item) -> R + Sync,
    consume: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    I: Iterator + Send,
    R: Send,
{
    let source = Mutex::new(source.fuse().enumerate());
    let window = Window::new(window);
    let (results, finished) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let results = results.clone();
            let (source, window, work) = (&source, &window, &work);
            scope.spawn(move || {
                while window.take_place() {
                    let next = lock(source).next();
                    let Some((i, item)) = next else {
                        return window.free_place();
                    };
                    if results.send((i, work(item))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(results);
        let consumed = consume_in_order(finished, &window, consume);
        // Stops the workers waiting for a place, when `consume` failed.
        window.close();
        consumed
    })
}

/// Hand the results `finished` receives to `consume` in the order of their numbers, freeing
/// the item's place in the window after each.
fn consume_in_order<R, E>(
    finished: Receiver<(usize, R)>,
    window: &Window,
    mut consume: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let mut early = BTreeMap::new();
    let mut next = 0;
    for (i, result) in finished {
        early.insert(i, result);
        while let Some(result) = early.remove(&next) {
            consume(result)?;
            next += 1;
            window.free_place();
        }
    }
    Ok(())
}

/// The places of the window: a counting semaphore that can be closed.
struct Window {
    size: usize,
    places: Mutex<Places>,
    freed: Condvar,
}

struct Places {
    /// Items taken and not yet consumed.
    taken: usize,
    /// No more items are wanted.
    closed: bool,
}

impl Window {
    fn new(size: usize) -> Window {
        Window {
            size: size.max(1),
            places: Mutex::new(Places {
                taken: 0,
                closed: false,
            }),
            freed: Condvar::new(),
        }
    }

    /// Take a place, waiting for one to be free; `false` once the window is closed.
    fn take_place(&self) -> bool {
        let mut places = lock(&self.places);
        while places.taken >= self.size && !places.closed {
            places = self
                .freed
                .wait(places)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if places.closed {
            return false;
        }
        places.taken += 1;
        true
    }

    fn free_place(&self) {
        lock(&self.places).taken -= 1;
        self.freed.notify_one();
    }

    fn close(&self) {
        lock(&self.places).closed = true;
        self.freed.notify_all();
    }
}

/// The mutex's value; a thread that panicked holding it (its panic goes on at the end of the
/// scope) left it whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::thread;
    use std::time::Duration;

    use super::map_in_order;

    /// Items 0..n, the early ones slowest, so that later results come first.
    fn slow_first(n: usize) -> impl Fn(usize) -> usize + Sync {
        move |i| {
            thread::sleep(Duration::from_micros(((n - i) % 7) as u64 * 200));
            i * 10
        }
    }

    #[test]
    fn results_come_in_the_order_of_the_items_for_any_threads_and_window() {
        for threads in [1, 2, 4, 8] {
            for window in [1, 2, 3, 16] {
                let mut got = Vec::new();
                let consumed = map_in_order(threads, window, 0..50, slow_first(50), |r| {
                    got.push(r);
                    Ok::<(), ()>(())
                });
                assert_eq!(consumed, Ok(()));
                let expected: Vec<usize> = (0..50).map(|i| i * 10).collect();
                assert_eq!(got, expected, "{threads} threads, window {window}");
            }
        }
    }

    #[test]
    fn no_more_than_the_window_is_taken_and_not_consumed() {
        for (threads, window) in [(1, 1), (2, 3), (4, 4), (8, 5)] {
            let taken = AtomicUsize::new(0);
            let source = (0..200).inspect(|_| {
                taken.fetch_add(1, Ordering::SeqCst);
            });
            let mut consumed = 0;
            let mut most = 0;
            let result = map_in_order(threads, window, source, slow_first(200), |_| {
                consumed += 1;
                // Every item taken so far, less those consumed before this one.
                most = most.max(taken.load(Ordering::SeqCst) - (consumed - 1));
                thread::sleep(Duration::from_micros(100));
                Ok::<(), ()>(())
            });
            assert_eq!((result, consumed), (Ok(()), 200));
            assert!(
                most <= window,
                "{threads} threads, window {window}: {most} items in flight"
            );
        }
    }

    #[test]
    fn a_failing_consumer_stops_the_source() {
        let taken = AtomicUsize::new(0);
        let source = (0..1_000_000).inspect(|_| {
            taken.fetch_add(1, Ordering::SeqCst);
        });
        let mut consumed = 0;
        let result = map_in_order(
            4,
            8,
            source,
            |i| i,
            |i| {
                consumed += 1;
                if i == 3 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!((result, consumed), (Err(3), 4));
        let taken = taken.load(Ordering::SeqCst);
        assert!(
            taken <= 4 + 8,
            "{taken} items taken after the consumer failed"
        );
    }
}
