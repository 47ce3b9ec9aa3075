-- hs_lazy_thunk.hs - a lazy left fold that builds a growing chain of thunks
-- (the shape of LargeThunk from the -hi blog post, small: runs < 2 s).
-- Markers (traceMarkerIO) delimit the phases. Expected under -hT: a THUNK
-- band that grows steadily until the fold is forced.
import Debug.Trace (traceMarkerIO)
import Data.IORef
import Control.Monad (forM_)
import System.Mem (performMajorGC)

main :: IO ()
main = do
  traceMarkerIO "start building"
  ref <- newIORef (0 :: Int)
  forM_ [1 .. 800000 :: Int] $ \i -> do
    modifyIORef ref (+ i)           -- lazy: each step adds a thunk
    if i `mod` 100000 == 0 then performMajorGC else return ()
  traceMarkerIO "forcing"
  v <- readIORef ref
  print v
  performMajorGC
  traceMarkerIO "done"
