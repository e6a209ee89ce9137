# written by iomatrix report; re-plot with: gnuplot lat-24.gp
set encoding utf8
set terminal svg size 800,420 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'lat-24.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key top left noenhanced
array D[2]
D[1] = 1
D[2] = 1
set xlabel 'latency (ms)'
set ylabel 'fraction of IOs slower'
set key top right
set logscale x 10
set format x '%g'
set logscale y 10
set format y '%g'
plot for [i=1:2] 'lat-24.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.7 lc rgb C[i] dt D[i] title columnhead(2*i)
set terminal pngcairo size 800,420 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'lat-24.png'
plot for [i=1:2] 'lat-24.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.7 lc rgb C[i] dt D[i] title columnhead(2*i)
set output
reset
