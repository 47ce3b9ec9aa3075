-- hs_threaded.hs - two worker threads each build a lazy thunk chain; built
-- with -threaded and run with +RTS -N2 so events of two capabilities are
-- interleaved (out of time order) in the eventlog. Each worker pauses
-- 20 ms after every major GC, longer than the census interval the test
-- asks for (-i0.01), so that however fast the machine a census lands
-- at most of those GCs.
import Debug.Trace (traceMarkerIO)
import Control.Concurrent
import Control.Monad (forM_)
import Data.IORef
import System.Mem (performMajorGC)

worker :: Int -> MVar Int -> IO ()
worker w done = do
  traceMarkerIO ("worker " ++ show w ++ " start")
  ref <- newIORef (0 :: Int)
  forM_ [1 .. 400000 :: Int] $ \i -> do
    modifyIORef ref (+ i)
    if i `mod` 25000 == 0 then performMajorGC >> threadDelay 20000 else return ()
  v <- readIORef ref
  traceMarkerIO ("worker " ++ show w ++ " forcing")
  v `seq` putMVar done v

main :: IO ()
main = do
  a <- newEmptyMVar
  b <- newEmptyMVar
  _ <- forkOn 0 (worker 1 a)
  _ <- forkOn 1 (worker 2 b)
  x <- takeMVar a
  y <- takeMVar b
  print (x + y)
  traceMarkerIO "done"
