-- hs_strict_fix.hs - the strict fix of hs_lazy_thunk: modifyIORef' forces
-- each step, so no chain of thunks grows. Same markers, same shape.
import Debug.Trace (traceMarkerIO)
import Data.IORef
import Control.Monad (forM_)
import System.Mem (performMajorGC)

main :: IO ()
main = do
  traceMarkerIO "start building"
  ref <- newIORef (0 :: Int)
  forM_ [1 .. 800000 :: Int] $ \i -> do
    modifyIORef' ref (+ i)          -- strict: no thunk chain
    if i `mod` 100000 == 0 then performMajorGC else return ()
  traceMarkerIO "forcing"
  v <- readIORef ref
  print v
  performMajorGC
  traceMarkerIO "done"
