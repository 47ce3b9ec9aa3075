-- hs_strict_fix.hs - the strict fix of hs_lazy_thunk: modifyIORef' forces
-- each step, so no chain of thunks grows. Same markers, same shape.
import Debug.Trace (traceMarkerIO)
import Data.IORef
import Control.Monad (forM_, when)
import Foreign.StablePtr (newStablePtr)
import System.Mem (performMajorGC)

main :: IO ()
main = do
  traceMarkerIO "start building"
  ref <- newIORef (0 :: Int)
  _ <- newStablePtr ref
  forM_ [1 .. 800000 :: Int] $ \i -> do
    modifyIORef' ref (+ i)          -- strict: no thunk chain
    when (i == 400000) $ traceMarkerIO "halfway"
    when (i `mod` 50000 == 0) performMajorGC
  traceMarkerIO "built"
  putStrLn "built"
